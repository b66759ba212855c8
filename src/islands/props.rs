//! What the props of several islands share: where the form posts, the ids
//! the islands find each other by, and the plans as they travel between
//! islands. Each island's own props struct is in its module
//! ([`super::pricing`], [`super::menu`], [`super::contact`]). Island code
//! holds no business constants: every price, label and list it shows comes
//! from these structs, built from content. They are the contract's source:
//! the TypeScript types in frontend/src/props.generated.ts are generated from
//! them (see the `island_props` test), so the two sides cannot drift apart.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::contact::*;
use super::menu::*;
use super::pricing::*;
use crate::content::{Plan, Site};
use crate::diagnostics::{Diagnostic, Result};

/// Where the contact form posts: the hosted form service, or the preview
/// server's stand-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormEndpoint {
    Hosted,
    /// An origin such as `""` (the page's own) for the local stand-in.
    Local,
}

pub use crate::output::headers::HOSTED_FORM_SERVICE;

impl FormEndpoint {
    pub fn origin(&self) -> &'static str {
        match self {
            FormEndpoint::Hosted => HOSTED_FORM_SERVICE,
            FormEndpoint::Local => "",
        }
    }
}

/// The ids the islands use to find each other on the page.
pub const CONTACT_SECTION_ID: &str = "contact";
pub const PROMOTION_SELECT_ID: &str = "promotion";

/// The props of the island `name` (a file frontend/src/islands/<name>.tsx).
/// An island without props here gets `{}`: a props struct is only needed
/// when the island shows content.
pub fn for_island(name: &str, site: &Site, endpoint: &FormEndpoint) -> Result<Value> {
    let value = match name {
        "pricing" => serde_json::to_value(PricingProps::new(site)),
        "menu" => serde_json::to_value(MenuProps::new(site)),
        "contact" => serde_json::to_value(ContactProps::new(site, endpoint)),
        _ => Ok(Value::Object(serde_json::Map::new())),
    };
    value.map_err(|e| {
        Diagnostic::new(format!(
            "the props of island \"{name}\" cannot be written as JSON: {e}"
        ))
    })
}

/// Whether `props` (an island's props with a placement's added) still read as
/// the island's props struct: a plan named `"yearly"`, say, does not. The
/// message is serde's, naming what it expected.
pub fn check_typed(name: &str, props: &Value) -> std::result::Result<(), String> {
    fn reads_as<T: serde::de::DeserializeOwned>(props: &Value) -> std::result::Result<(), String> {
        serde_json::from_value::<T>(props.clone())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    match name {
        "pricing" => reads_as::<PricingProps>(props),
        "menu" => reads_as::<MenuProps>(props),
        "contact" => reads_as::<ContactProps>(props),
        _ => Ok(()),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum PlanType {
    Monthly,
    Annual,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum BillingFrequency {
    Monthly,
    Yearly,
}

/// The plan as it travels between islands and into the form's hidden fields.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
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

/// The TypeScript declarations of every props type, in the order a reader
/// meets them; frontend/src/props.generated.ts holds exactly this text.
pub fn typescript_declarations() -> String {
    let config = ts_rs::Config::new();
    let declarations = [
        declaration::<PlanType>(&config),
        declaration::<BillingFrequency>(&config),
        declaration::<PlanIdentity>(&config),
        declaration::<Plans<PlanIdentity>>(&config),
        declaration::<PricingPlan>(&config),
        declaration::<PricingProps>(&config),
        declaration::<MenuLink>(&config),
        declaration::<MenuProps>(&config),
        declaration::<PromotionOption>(&config),
        declaration::<PromotionProps>(&config),
        declaration::<PhoneProps>(&config),
        declaration::<EmailProps>(&config),
        declaration::<FieldLabels>(&config),
        declaration::<FieldDefaults>(&config),
        declaration::<ZipProps>(&config),
        declaration::<ThanksProps>(&config),
        declaration::<ContactProps>(&config),
    ];
    let mut out = String::from(
        "// Generated from the props structs of src/islands/ by `CURBSIDE_BLESS=1 cargo test --test island_props`.\n// Do not edit: change the Rust structs, and that test tells you to regenerate this file.\n",
    );
    for declaration in declarations {
        out.push('\n');
        out.push_str(&declaration);
        out.push('\n');
    }
    out
}

/// One exported declaration with its doc comment.
fn declaration<T: TS>(config: &ts_rs::Config) -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}", T::decl(config))
}
