//! The props of the pricing island (frontend/src/islands/pricing.tsx): the
//! two plan cards and the billing toggle.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::props::{
    CONTACT_SECTION_ID, FormEndpoint, IslandProps, PROMOTION_SELECT_ID, PlanIdentity, PlanType,
    Plans,
};
use crate::content::values::Text;
use crate::content::{Plan, Site};

/// A plan card of the pricing island.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "camelCase")]
pub struct PricingPlan {
    #[serde(flatten)]
    pub identity: PlanIdentity,
    pub name: String,
    /// Display price, e.g. "$25".
    pub price: String,
    pub unit: String,
    pub features: Vec<String>,
    pub cancellation: String,
    /// Text of the Start button.
    pub button: String,
    /// Value of the contact form's promotion select that this plan's Start button chooses.
    pub promotion: String,
    pub badge: Option<String>,
}

/// The words of one plan card that come from the pricing section's text.
struct CardText<'a> {
    unit: &'a Text,
    button: &'a Text,
    promotion: &'a Text,
    badge: Option<&'a Text>,
}

impl PricingPlan {
    fn new(plan: &Plan, identity: PlanIdentity, text: CardText) -> Self {
        PricingPlan {
            identity,
            name: plan.name.to_string(),
            price: plan.price.to_string(),
            unit: text.unit.to_string(),
            features: plan.features.iter().map(Text::to_string).collect(),
            cancellation: plan.cancellation.to_string(),
            button: text.button.to_string(),
            promotion: text.promotion.to_string(),
            badge: text.badge.map(Text::to_string),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "camelCase")]
pub struct PricingProps {
    pub toggle_label: String,
    pub monthly_label: String,
    pub annual_label: String,
    /// id of the contact section the Start buttons lead to.
    pub contact_id: String,
    /// id of the contact form's promotion select.
    pub promotion_select_id: String,
    pub plans: Plans<PricingPlan>,
    /// The plan the page chooses (a placement's `plan`): shown until the visitor chooses one
    /// themselves. None: monthly, and the form's promotion stays on its first option.
    pub plan: Option<PlanType>,
}

impl PricingProps {
    pub fn new(site: &Site) -> Self {
        let text = &site.home.pricing;
        let promotions = &site.home.contact.promotion_options;
        let identities = Plans::of(site);
        PricingProps {
            toggle_label: text.toggle_label.to_string(),
            monthly_label: text.monthly_label.to_string(),
            annual_label: text.annual_label.to_string(),
            contact_id: CONTACT_SECTION_ID.into(),
            promotion_select_id: PROMOTION_SELECT_ID.into(),
            plan: None,
            plans: Plans {
                monthly: PricingPlan::new(
                    &site.plans.monthly,
                    identities.monthly,
                    CardText {
                        unit: &text.monthly_unit,
                        button: &text.monthly_button,
                        promotion: &promotions.monthly,
                        badge: None,
                    },
                ),
                annual: PricingPlan::new(
                    &site.plans.annual,
                    identities.annual,
                    CardText {
                        unit: &text.annual_unit,
                        button: &text.annual_button,
                        promotion: &promotions.annual,
                        badge: Some(&text.annual_badge),
                    },
                ),
            },
        }
    }
}

impl IslandProps for PricingProps {
    fn from_site(site: &Site, _: &FormEndpoint) -> Self {
        PricingProps::new(site)
    }
}
