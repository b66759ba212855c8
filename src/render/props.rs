//! The props of each island, serialized from content. Island code holds no
//! business constants: every price, label and list it shows comes from here.

use serde_json::{Value, json};

use crate::content::values::Text;
use crate::content::{Plan, Site};
use crate::islands::Island;

/// Where the contact form posts: the hosted form service, or the preview
/// server's stand-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormEndpoint {
    Hosted,
    /// An origin such as `""` (the page's own) for the local stand-in.
    Local,
}

pub const HOSTED_FORM_SERVICE: &str = "https://formspree.io";

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

/// The props of `island`.
pub fn for_island(island: &Island, site: &Site, endpoint: &FormEndpoint) -> Value {
    match island.name {
        "pricing" => pricing(site),
        "menu" => menu(site),
        _ => contact(site, endpoint),
    }
}

fn plan_identity(plan_type: &str, plan: &Plan, frequency: &str) -> Value {
    json!({ "planType": plan_type, "amount": plan.price.0, "frequency": frequency })
}

pub fn pricing(site: &Site) -> Value {
    let text = &site.home.pricing;
    let promotions = &site.home.contact.promotion_options;
    let card = |plan: &Plan,
                plan_type: &str,
                frequency: &str,
                unit: &Text,
                button: &Text,
                promotion: &Text,
                badge| {
        let mut value = plan_identity(plan_type, plan, frequency);
        let fields = json!({
            "name": plan.name.as_str(),
            "price": plan.price.to_string(),
            "unit": unit.as_str(),
            "features": plan.features.iter().map(Text::as_str).collect::<Vec<_>>(),
            "cancellation": plan.cancellation.as_str(),
            "button": button.as_str(),
            "promotion": promotion.as_str(),
            "badge": badge,
        });
        if let (Value::Object(target), Value::Object(extra)) = (&mut value, fields) {
            target.extend(extra);
        }
        value
    };
    json!({
        "toggleLabel": text.toggle_label.as_str(),
        "monthlyLabel": text.monthly_label.as_str(),
        "annualLabel": text.annual_label.as_str(),
        "contactId": CONTACT_SECTION_ID,
        "promotionSelectId": PROMOTION_SELECT_ID,
        "plans": {
            "monthly": card(&site.plans.monthly, "monthly", "monthly", &text.monthly_unit, &text.monthly_button, &promotions.monthly, None::<&str>),
            "annual": card(&site.plans.annual, "annual", "yearly", &text.annual_unit, &text.annual_button, &promotions.annual, Some(text.annual_badge.as_str())),
        },
    })
}

pub fn menu(site: &Site) -> Value {
    let nav = &site.chrome.nav;
    let links: Vec<Value> = [
        ("how-it-works", &nav.how_it_works),
        ("pricing", &nav.pricing),
        ("faq", &nav.faq),
        ("contact", &nav.contact),
    ]
    .into_iter()
    .map(|(id, label)| json!({ "href": format!("/#{id}"), "text": label.as_str() }))
    .collect();
    json!({
        "label": site.chrome.menu_button.as_str(),
        "navLabel": "Main",
        "links": links,
    })
}

pub fn contact(site: &Site, endpoint: &FormEndpoint) -> Value {
    let text = &site.home.contact;
    let business = &site.business;
    let labels = &text.fields;
    let options = &text.promotion_options;
    json!({
        "endpoint": endpoint.origin(),
        "formId": business.formspree_form_id.as_str(),
        "promotionSelectId": PROMOTION_SELECT_ID,
        "heading": text.heading.as_str(),
        "lead": text.lead.as_str(),
        "phone": { "label": text.phone_label.as_str(), "display": business.phone.display, "tel": business.phone.tel },
        "email": { "label": text.email_label.as_str(), "address": business.email.as_str() },
        "fields": {
            "firstName": labels.first_name.as_str(),
            "lastName": labels.last_name.as_str(),
            "address": labels.address.as_str(),
            "city": labels.city.as_str(),
            "state": labels.state.as_str(),
            "zip": labels.zip.as_str(),
            "email": labels.email.as_str(),
            "phone": labels.phone.as_str(),
            "promotion": labels.promotion.as_str(),
        },
        "defaults": { "city": business.city.as_str(), "state": business.region.as_str() },
        "promotion": {
            // The form service receives "None" for no promotion, whatever its label.
            "options": [
                { "value": "None", "label": options.none.as_str() },
                { "value": options.monthly.as_str(), "label": options.monthly.as_str() },
                { "value": options.annual.as_str(), "label": options.annual.as_str() },
            ],
            "note": text.promotion_note.as_str(),
            "monthly": options.monthly.as_str(),
            "annual": options.annual.as_str(),
        },
        "plans": {
            "monthly": plan_identity("monthly", &site.plans.monthly, "monthly"),
            "annual": plan_identity("annual", &site.plans.annual, "yearly"),
        },
        "zip": {
            "serviceArea": business.service_area.zip_codes.iter().map(|z| z.as_str()).collect::<Vec<_>>(),
            "inArea": text.zip_in_area.as_str(),
            "outsideArea": text.zip_outside_area.as_str(),
        },
        "submit": text.submit.as_str(),
        "submitting": text.submitting.as_str(),
        "privacyNote": text.privacy_note.as_str(),
        "privacyLink": text.privacy_link.as_str(),
        "timeout": text.timeout.as_str(),
        "privacyHref": "/privacypolicy",
        "thanks": {
            "heading": text.thanks_heading.as_str(),
            "text": text.thanks_text.as_str(),
            "backHome": text.back_home.as_str(),
            "href": "/",
        },
    })
}
