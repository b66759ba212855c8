//! Figures computed from the prices, never typed.

use std::path::Path;

use super::model::Plans;
use super::yaml::locate_key;
use crate::diagnostics::{Diagnostic, Location, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derived {
    pub annual_saving: u32,
    /// When the annual price is whole monthly payments: only then is "pay for
    /// 10 months, get 2 free" true.
    pub whole_months: Option<WholeMonths>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeMonths {
    /// annual / monthly.
    pub paid: u32,
    pub free: u32,
}

impl Derived {
    /// The annual plan's advantage, read inside a sentence: free months when
    /// true, the saving otherwise.
    pub fn annual_deal(&self) -> String {
        match self.whole_months {
            Some(WholeMonths { paid, free }) => format!("pay for {paid} months, get {free} free"),
            None => format!("save ${} a year", self.annual_saving),
        }
    }

    /// Short, for a label: "2 months free" or "save $60 a year".
    pub fn annual_deal_short(&self) -> String {
        match self.whole_months {
            Some(WholeMonths { free: 1, .. }) => "1 month free".to_string(),
            Some(WholeMonths { free, .. }) => format!("{free} months free"),
            None => format!("save ${} a year", self.annual_saving),
        }
    }
}

pub(super) fn derive(plans: &Plans, text: &str, shown: &Path) -> Result<Derived> {
    let monthly = plans.monthly.price.0;
    let annual = plans.annual.price.0;
    let at_annual = || {
        let (line, column) = locate_key(text, &["annual", "price"]).unwrap_or((1, 1));
        Location::at(shown, line, column)
    };
    // Any annual price that saves money; the text says how.
    if annual >= 12 * monthly {
        return Err(Diagnostic::new(format!(
            "the annual price (${annual}) must be less than 12 monthly payments (${})",
            12 * monthly
        ))
        .at(at_annual())
        .help("lower the annual price, or raise the monthly one, so the annual plan saves money"));
    }
    let paid = annual / monthly;
    let whole_months = (annual.is_multiple_of(monthly) && paid > 0).then_some(WholeMonths {
        paid,
        free: 12 - paid,
    });
    Ok(Derived {
        annual_saving: 12 * monthly - annual,
        whole_months,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::yaml;

    fn derived(monthly: u32, annual: u32) -> Result<Derived> {
        let plan = |price| format!("name: A\nprice: {price}\ncancellation: C\nfeatures: [F]\n");
        let text = format!(
            "monthly:\n  {}\nannual:\n  {}\n",
            plan(monthly).replace('\n', "\n  "),
            plan(annual).replace('\n', "\n  ")
        );
        let plans: Plans = yaml::parse(&text, Path::new("plans.yaml"), 0)?;
        derive(&plans, &text, Path::new("plans.yaml"))
    }

    #[test]
    fn free_months_are_claimed_only_when_the_prices_make_them_true() {
        let whole = derived(25, 250).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(whole.annual_saving, 50);
        assert_eq!(whole.whole_months, Some(WholeMonths { paid: 10, free: 2 }));
        assert_eq!(whole.annual_deal(), "pay for 10 months, get 2 free");
        assert_eq!(whole.annual_deal_short(), "2 months free");
        let one = derived(25, 275).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(one.annual_deal_short(), "1 month free");

        let raised = derived(30, 250).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(raised.annual_saving, 110);
        assert_eq!(raised.whole_months, None);
        assert_eq!(raised.annual_deal(), "save $110 a year");
        assert_eq!(raised.annual_deal_short(), "save $110 a year");

        assert_eq!(
            derived(25, 20).map(|d| d.annual_deal()),
            Ok("save $280 a year".into())
        );
        let err = derived(25, 300).unwrap_err();
        assert!(
            err.message
                .contains("must be less than 12 monthly payments"),
            "{err}"
        );
    }
}
