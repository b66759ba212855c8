//! What several islands' props share: where the form posts, the ids islands
//! find each other by, the plans as they travel. Island code holds no business
//! constants: every price, label and list comes from these structs, built from
//! content, and the TypeScript types are exported from them, so the two sides
//! cannot drift apart.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::{Plan, Site};
use crate::output::headers::HOSTED_FORM_SERVICE;

/// The hosted form service, or the preview's stand-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormEndpoint {
    Hosted,
    /// An origin such as `""` (the page's own) for the local stand-in.
    Local,
}

impl FormEndpoint {
    pub fn origin(&self) -> &'static str {
        match self {
            FormEndpoint::Hosted => HOSTED_FORM_SERVICE,
            FormEndpoint::Local => "",
        }
    }
}

/// Built from content, sent as JSON, typed in TypeScript from the same struct.
pub trait IslandProps: Serialize + DeserializeOwned + TS + 'static {
    fn from_site(site: &Site, endpoint: &FormEndpoint) -> Self;
}

/// The ids the islands use to find each other on the page.
pub const CONTACT_SECTION_ID: &str = "contact";
pub const PROMOTION_SELECT_ID: &str = "promotion";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "lowercase")]
pub enum PlanType {
    Monthly,
    Annual,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "lowercase")]
pub enum BillingFrequency {
    Monthly,
    Yearly,
}

/// The plan as it travels between islands and into the form's hidden fields.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "camelCase")]
pub struct PlanIdentity {
    pub plan_type: PlanType,
    pub amount: u32,
    pub frequency: BillingFrequency,
}

impl PlanIdentity {
    pub(super) fn of(plan_type: PlanType, plan: &Plan) -> Self {
        let frequency = match plan_type {
            PlanType::Monthly => BillingFrequency::Monthly,
            PlanType::Annual => BillingFrequency::Yearly,
        };
        PlanIdentity {
            plan_type,
            amount: plan.price.0,
            frequency,
        }
    }
}

/// Both plans, keyed by plan type.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
pub struct Plans<P> {
    pub monthly: P,
    pub annual: P,
}

impl Plans<PlanIdentity> {
    pub(super) fn of(site: &Site) -> Self {
        Plans {
            monthly: PlanIdentity::of(PlanType::Monthly, &site.plans.monthly),
            annual: PlanIdentity::of(PlanType::Annual, &site.plans.annual),
        }
    }
}
