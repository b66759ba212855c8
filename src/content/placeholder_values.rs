//! Each placeholder's value, from business.yaml and plans.yaml.

use super::derived::Derived;
use super::fill::Values;
use super::model::{Business, Plans};
use super::placeholders::{Kind, PLACEHOLDERS};

pub struct Sources<'a> {
    pub business: &'a Business,
    pub plans: &'a Plans,
    pub derived: &'a Derived,
}

/// Every placeholder's value, but those needing whole months the prices do not give.
pub fn values(sources: &Sources) -> Values {
    let mut values = Values::default();
    for placeholder in PLACEHOLDERS {
        let Some(text) = value(placeholder.name, sources) else {
            continue;
        };
        match placeholder.kind {
            Kind::Phrase => values.set_phrase(placeholder.name, text),
            Kind::Text | Kind::WholeMonths => values.set(placeholder.name, text),
        }
    }
    values
}

/// `None` for months the prices do not give whole, and for a name without a
/// value here (a test fails on one).
fn value(name: &str, s: &Sources) -> Option<String> {
    let business = s.business;
    let months = s.derived.whole_months;
    Some(match name {
        "business_name" => business.name.as_str().to_string(),
        "phone" => business.phone.display.clone(),
        "email" => business.email.as_str().to_string(),
        "city" => business.city.as_str().to_string(),
        "region" => business.region.as_str().to_string(),
        "service_area" => business.service_area.description.as_str().to_string(),
        "monthly_price" => s.plans.monthly.price.to_string(),
        "annual_price" => s.plans.annual.price.to_string(),
        "annual_saving" => format!("${}", s.derived.annual_saving),
        "free_months" => months?.free.to_string(),
        "paid_months" => months?.paid.to_string(),
        "annual_deal" => s.derived.annual_deal(),
        "annual_deal_short" => s.derived.annual_deal_short(),
        "evening_route_start" => business.schedule.evening_route_start.to_string(),
        "holiday_notice_hours" => business.schedule.holiday_notice_hours.to_string(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::content::placeholders::{names, needs_whole_months};
    use crate::content::{WholeMonths, yaml};

    #[test]
    fn every_placeholder_has_a_value_but_whole_months_the_prices_do_not_give() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        let business: Business = yaml::parse(&read("business.yaml"), Path::new("b"), 0)
            .unwrap_or_else(|e| panic!("{e}"));
        let plans: Plans =
            yaml::parse(&read("plans.yaml"), Path::new("p"), 0).unwrap_or_else(|e| panic!("{e}"));
        let whole = Derived {
            annual_saving: 50,
            whole_months: Some(WholeMonths { paid: 10, free: 2 }),
        };
        let not_whole = Derived {
            annual_saving: 110,
            whole_months: None,
        };
        for (derived, whole) in [(whole, true), (not_whole, false)] {
            let values = values(&Sources {
                business: &business,
                plans: &plans,
                derived: &derived,
            });
            for name in names() {
                assert_eq!(
                    values.has(name),
                    whole || !needs_whole_months(name),
                    "{name}"
                );
            }
        }
    }
}
