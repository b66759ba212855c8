//! The contact island's props: how to reach the business, and the sign-up form.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::props::{FormEndpoint, IslandProps, PROMOTION_SELECT_ID, PlanIdentity, PlanType, Plans};
use crate::content::Site;
use crate::content::values::Text;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
pub struct PromotionOption {
    pub value: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
pub struct PromotionProps {
    /// The first option is the default ("None", shown as "Just Curious").
    pub options: Vec<PromotionOption>,
    pub note: String,
    /// Option values that stand for each plan.
    pub monthly: String,
    pub annual: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
pub struct PhoneProps {
    pub label: String,
    pub display: String,
    pub tel: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
pub struct EmailProps {
    pub label: String,
    pub address: String,
}

/// A field of the sign-up form, by the name the form service receives
/// (which is also its element's id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "camelCase")]
pub enum ContactField {
    FirstName,
    LastName,
    Address,
    City,
    State,
    Zip,
    Email,
    Phone,
    Promotion,
}

impl ContactField {
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|name| name.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// The fields a visitor must fill in, the one list: the form marks exactly
/// these `required` (in its server HTML too), and the preview's form stand-in
/// refuses a submission without them, as the hosted service does when its
/// settings require them.
pub const REQUIRED_FIELDS: &[ContactField] = &[
    ContactField::FirstName,
    ContactField::LastName,
    ContactField::Address,
    ContactField::City,
    ContactField::State,
    ContactField::Zip,
    ContactField::Email,
    ContactField::Phone,
];

/// The labels of the form's fields, by field name.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
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
#[ts(export_to = "island-types.generated.ts")]
pub struct FieldDefaults {
    pub city: String,
    pub state: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "camelCase")]
pub struct ZipProps {
    pub service_area: Vec<String>,
    pub in_area: String,
    pub outside_area: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
#[serde(rename_all = "camelCase")]
pub struct ThanksProps {
    pub heading: String,
    pub text: String,
    pub back_home: String,
    pub href: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export_to = "island-types.generated.ts")]
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
    /// The fields marked `required`: the visitor must fill them in.
    pub required_fields: Vec<ContactField>,
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
            required_fields: REQUIRED_FIELDS.to_vec(),
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

impl IslandProps for ContactProps {
    fn from_site(site: &Site, endpoint: &FormEndpoint) -> Self {
        ContactProps::new(site, endpoint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_a_label_under_its_name() {
        let labels = serde_json::to_value(FieldLabels {
            first_name: String::new(),
            last_name: String::new(),
            address: String::new(),
            city: String::new(),
            state: String::new(),
            zip: String::new(),
            email: String::new(),
            phone: String::new(),
            promotion: String::new(),
        })
        .expect("labels are JSON");
        let labelled: Vec<&String> = labels
            .as_object()
            .map(|labels| labels.keys().collect())
            .unwrap_or_default();
        let fields = [
            ContactField::FirstName,
            ContactField::LastName,
            ContactField::Address,
            ContactField::City,
            ContactField::State,
            ContactField::Zip,
            ContactField::Email,
            ContactField::Phone,
            ContactField::Promotion,
        ];
        assert_eq!(labelled.len(), fields.len());
        for field in fields {
            assert!(labelled.contains(&&field.name()), "{field:?}");
        }
        assert_eq!(ContactField::FirstName.name(), "firstName");
    }
}
