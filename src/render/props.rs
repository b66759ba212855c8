//! The props of each island, built from content as typed structs. Island code
//! holds no business constants: every price, label and list it shows comes
//! from here. These structs are the contract's source: the TypeScript types
//! in frontend/src/props.generated.ts are generated from them (see the
//! `island_props` test), so the two sides cannot drift apart.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::content::values::Text;
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
    fn of(plan_type: PlanType, plan: &Plan) -> Self {
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
    fn of(site: &Site) -> Self {
        Plans {
            monthly: PlanIdentity::of(PlanType::Monthly, &site.plans.monthly),
            annual: PlanIdentity::of(PlanType::Annual, &site.plans.annual),
        }
    }
}

/// A plan card of the pricing island.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
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

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PromotionOption {
    pub value: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PromotionProps {
    /// The first option is the default ("None", shown as "Just Curious").
    pub options: Vec<PromotionOption>,
    pub note: String,
    /// Option values that stand for each plan.
    pub monthly: String,
    pub annual: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PhoneProps {
    pub label: String,
    pub display: String,
    pub tel: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct EmailProps {
    pub label: String,
    pub address: String,
}

/// The labels of the form's fields, by field name.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FieldLabels {
    pub first_name: String,
    pub last_name: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub zip: String,
    pub email: String,
    pub phone: String,
    pub promotion: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct FieldDefaults {
    pub city: String,
    pub state: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ZipProps {
    pub service_area: Vec<String>,
    pub in_area: String,
    pub outside_area: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ThanksProps {
    pub heading: String,
    pub text: String,
    pub back_home: String,
    pub href: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContactProps {
    /// Origin of the form service, e.g. "https://formspree.io"; "" means the page's own origin (local preview).
    pub endpoint: String,
    pub form_id: String,
    /// The promotion select's id, which the Start buttons look up.
    pub promotion_select_id: String,
    pub heading: String,
    pub lead: String,
    pub phone: PhoneProps,
    pub email: EmailProps,
    pub fields: FieldLabels,
    pub defaults: FieldDefaults,
    pub promotion: PromotionProps,
    pub plans: Plans<PlanIdentity>,
    /// The plan the page chooses: the form starts on it and on its promotion, even without
    /// JavaScript. None: monthly, with the promotion's first option.
    pub plan: Option<PlanType>,
    pub zip: ZipProps,
    pub submit: String,
    pub submitting: String,
    pub privacy_note: String,
    pub privacy_link: String,
    pub privacy_href: String,
    pub thanks: ThanksProps,
    /// Shown, prefixed like any form-level error, when the form service does not reply in time.
    pub timeout: String,
}

impl ContactProps {
    pub fn new(site: &Site, endpoint: &FormEndpoint) -> Self {
        let text = &site.home.contact;
        let business = &site.business;
        let labels = &text.fields;
        let options = &text.promotion_options;
        let option = |value: &str, label: &Text| PromotionOption {
            value: value.into(),
            label: label.to_string(),
        };
        ContactProps {
            endpoint: endpoint.origin().into(),
            form_id: business.formspree_form_id.as_str().into(),
            promotion_select_id: PROMOTION_SELECT_ID.into(),
            heading: text.heading.to_string(),
            lead: text.lead.to_string(),
            phone: PhoneProps {
                label: text.phone_label.to_string(),
                display: business.phone.display.clone(),
                tel: business.phone.tel.clone(),
            },
            email: EmailProps {
                label: text.email_label.to_string(),
                address: business.email.as_str().into(),
            },
            fields: FieldLabels {
                first_name: labels.first_name.to_string(),
                last_name: labels.last_name.to_string(),
                address: labels.address.to_string(),
                city: labels.city.to_string(),
                state: labels.state.to_string(),
                zip: labels.zip.to_string(),
                email: labels.email.to_string(),
                phone: labels.phone.to_string(),
                promotion: labels.promotion.to_string(),
            },
            defaults: FieldDefaults {
                city: business.city.to_string(),
                state: business.region.to_string(),
            },
            promotion: PromotionProps {
                // The form service receives "None" for no promotion, whatever its label.
                options: vec![
                    option("None", &options.none),
                    option(options.monthly.as_str(), &options.monthly),
                    option(options.annual.as_str(), &options.annual),
                ],
                note: text.promotion_note.to_string(),
                monthly: options.monthly.to_string(),
                annual: options.annual.to_string(),
            },
            plans: Plans::of(site),
            plan: None,
            zip: ZipProps {
                service_area: business
                    .service_area
                    .zip_codes
                    .iter()
                    .map(|zip| zip.as_str().to_string())
                    .collect(),
                in_area: text.zip_in_area.to_string(),
                outside_area: text.zip_outside_area.to_string(),
            },
            submit: text.submit.to_string(),
            submitting: text.submitting.to_string(),
            privacy_note: text.privacy_note.to_string(),
            privacy_link: text.privacy_link.to_string(),
            privacy_href: "/privacypolicy".into(),
            thanks: ThanksProps {
                heading: text.thanks_heading.to_string(),
                text: text.thanks_text.to_string(),
                back_home: text.back_home.to_string(),
                href: "/".into(),
            },
            timeout: text.timeout.to_string(),
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
        "// Generated from the props structs of src/render/props.rs by `CURBSIDE_BLESS=1 cargo test --test island_props`.\n// Do not edit: change the Rust structs, and that test tells you to regenerate this file.\n",
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
