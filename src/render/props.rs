//! The props of each island, serialized from content. Island code holds no
//! business constants: every price, label and list it shows comes from here.

use serde_json::{Value, json};

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
    let fill = |t: &crate::content::values::Text| site.values.fill(t.as_str());
    let card = |plan: &Plan, plan_type: &str, frequency: &str, unit, button, promotion, badge| {
        let mut value = plan_identity(plan_type, plan, frequency);
        let fields = json!({
            "name": fill(&plan.name),
            "price": plan.price.to_string(),
            "unit": fill(unit),
            "features": plan.features.iter().map(fill).collect::<Vec<_>>(),
            "cancellation": fill(&plan.cancellation),
            "button": fill(button),
            "promotion": fill(promotion),
            "badge": badge,
        });
        if let (Value::Object(target), Value::Object(extra)) = (&mut value, fields) {
            target.extend(extra);
        }
        value
    };
    json!({
        "toggleLabel": fill(&text.toggle_label),
        "monthlyLabel": fill(&text.monthly_label),
        "annualLabel": fill(&text.annual_label),
        "contactId": CONTACT_SECTION_ID,
        "promotionSelectId": PROMOTION_SELECT_ID,
        "plans": {
            "monthly": card(&site.plans.monthly, "monthly", "monthly", &text.monthly_unit, &text.monthly_button, &promotions.monthly, None::<String>),
            "annual": card(&site.plans.annual, "annual", "yearly", &text.annual_unit, &text.annual_button, &promotions.annual, Some(fill(&text.annual_badge))),
        },
    })
}

pub fn menu(site: &Site) -> Value {
    let nav = &site.chrome.nav;
    let fill = |t: &crate::content::values::Text| site.values.fill(t.as_str());
    let links: Vec<Value> = [
        ("how-it-works", &nav.how_it_works),
        ("pricing", &nav.pricing),
        ("faq", &nav.faq),
        ("contact", &nav.contact),
    ]
    .into_iter()
    .map(|(id, label)| json!({ "href": format!("/#{id}"), "text": fill(label) }))
    .collect();
    json!({
        "label": fill(&site.chrome.menu_button),
        "navLabel": "Main",
        "links": links,
    })
}

pub fn contact(site: &Site, endpoint: &FormEndpoint) -> Value {
    let text = &site.home.contact;
    let business = &site.business;
    let fill = |t: &crate::content::values::Text| site.values.fill(t.as_str());
    let labels = &text.fields;
    let options = &text.promotion_options;
    json!({
        "endpoint": endpoint.origin(),
        "formId": business.formspree_form_id.as_str(),
        "promotionSelectId": PROMOTION_SELECT_ID,
        "heading": fill(&text.heading),
        "lead": fill(&text.lead),
        "phone": { "label": fill(&text.phone_label), "display": business.phone.display, "tel": business.phone.tel },
        "email": { "label": fill(&text.email_label), "address": business.email.as_str() },
        "fields": {
            "firstName": fill(&labels.first_name),
            "lastName": fill(&labels.last_name),
            "address": fill(&labels.address),
            "city": fill(&labels.city),
            "state": fill(&labels.state),
            "zip": fill(&labels.zip),
            "email": fill(&labels.email),
            "phone": fill(&labels.phone),
            "promotion": fill(&labels.promotion),
        },
        "defaults": { "city": fill(&business.city), "state": fill(&business.region) },
        "promotion": {
            // The form service receives "None" for no promotion, whatever its label.
            "options": [
                { "value": "None", "label": fill(&options.none) },
                { "value": fill(&options.monthly), "label": fill(&options.monthly) },
                { "value": fill(&options.annual), "label": fill(&options.annual) },
            ],
            "note": fill(&text.promotion_note),
            "monthly": fill(&options.monthly),
            "annual": fill(&options.annual),
        },
        "plans": {
            "monthly": plan_identity("monthly", &site.plans.monthly, "monthly"),
            "annual": plan_identity("annual", &site.plans.annual, "yearly"),
        },
        "zip": {
            "serviceArea": business.service_area.zip_codes.iter().map(|z| z.as_str()).collect::<Vec<_>>(),
            "inArea": fill(&text.zip_in_area),
            "outsideArea": fill(&text.zip_outside_area),
        },
        "submit": fill(&text.submit),
        "submitting": fill(&text.submitting),
        "privacyNote": fill(&text.privacy_note),
        "privacyLink": fill(&text.privacy_link),
        "timeout": fill(&text.timeout),
        "privacyHref": "/privacypolicy",
        "thanks": {
            "heading": fill(&text.thanks_heading),
            "text": fill(&text.thanks_text),
            "backHome": fill(&text.back_home),
            "href": "/",
        },
    })
}
