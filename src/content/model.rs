//! The content files as typed structs. Field names are the YAML keys a site
//! owner writes; unknown keys are rejected so a misspelling never goes unseen.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fill::{Fill, Values, fill_every_field, no_placeholders};
use super::values::{
    Date, Email, FocalPoint, FormId, Phone, Price, SiteUrl, Text, TimeOfDay, ZipCode,
};

/// business.yaml
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Business {
    pub name: Text,
    pub description: Text,
    pub url: SiteUrl,
    pub phone: Phone,
    pub email: Email,
    pub formspree_form_id: FormId,
    pub city: Text,
    pub region: Text,
    pub postal_code: ZipCode,
    pub service_area: ServiceArea,
    pub schedule: Schedule,
    /// Where the business can be found or written to; a business without a
    /// storefront may leave it out.
    pub street_address: Option<Text>,
    pub geo: Option<Geo>,
    pub opening_hours: Option<Vec<OpeningHours>>,
}

/// Where the business is on the map, in decimal degrees.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Geo {
    pub latitude: f64,
    pub longitude: f64,
}

/// When the business answers customers: the same hours on each of `days`.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpeningHours {
    pub days: Vec<Weekday>,
    pub opens: TimeOfDay,
    pub closes: TimeOfDay,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

no_placeholders!(Geo, OpeningHours);

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServiceArea {
    pub description: Text,
    #[schemars(length(min = 1))]
    pub zip_codes: Vec<ZipCode>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    pub evening_route_start: TimeOfDay,
    pub holiday_notice_hours: u32,
}

/// plans.yaml
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Plans {
    pub monthly: Plan,
    pub annual: Plan,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    pub name: Text,
    pub price: Price,
    pub cancellation: Text,
    #[schemars(length(min = 1))]
    pub features: Vec<Text>,
}

/// site.yaml: words every page shares.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chrome {
    pub skip_link: Text,
    pub nav: Nav,
    pub menu_button: Text,
    pub back_to_top: Text,
    pub footer: FooterText,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Nav {
    pub how_it_works: Text,
    pub pricing: Text,
    pub faq: Text,
    pub contact: Text,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FooterText {
    pub privacy_policy: Text,
    pub terms_of_service: Text,
}

/// home.yaml
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Home {
    pub title: Text,
    pub description: Text,
    pub hero: Hero,
    pub how_it_works: HowItWorks,
    pub pricing: PricingText,
    pub faq: FaqText,
    pub contact: ContactText,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    pub eyebrow: Text,
    pub headline: Text,
    pub lead: Text,
    pub price_note: Text,
    pub button: Text,
    /// A photo beside the text on a wide screen, under it on a phone. Without
    /// it the hero is text on the site's green.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<ContentImage>,
}

/// A picture placed from content. The build publishes small copies of it in
/// modern formats, without its metadata (a photo's GPS position included).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentImage {
    /// The picture's path relative to content/, such as
    /// `photos/bins-at-curb.jpg`: JPEG, PNG or WebP (made smaller), GIF or SVG
    /// (published as they are).
    pub src: String,
    /// What the picture shows, for people who cannot see it, such as "Two
    /// green bins at the curb at dusk". Write `""` only for a picture that is
    /// pure decoration.
    pub alt: String,
    /// The part of the photo to keep in view where the layout shows only
    /// part of it (a phone's wide band, a desktop's frame), such as `top`,
    /// `bottom left` or `50% 30%` (across, down). The middle when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<FocalPoint>,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HowItWorks {
    pub heading: Text,
    #[schemars(length(min = 1))]
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: Text,
    pub text: Text,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PricingText {
    pub heading: Text,
    pub lead: Text,
    pub toggle_label: Text,
    pub monthly_label: Text,
    pub annual_label: Text,
    pub monthly_unit: Text,
    pub annual_unit: Text,
    pub annual_badge: Text,
    pub monthly_button: Text,
    pub annual_button: Text,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaqText {
    pub heading: Text,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactText {
    pub heading: Text,
    pub lead: Text,
    pub phone_label: Text,
    pub email_label: Text,
    pub fields: FieldLabels,
    pub promotion_options: PromotionOptions,
    pub promotion_note: Text,
    pub zip_in_area: Text,
    pub zip_outside_area: Text,
    pub submit: Text,
    pub submitting: Text,
    pub privacy_note: Text,
    pub privacy_link: Text,
    pub timeout: Text,
    pub thanks_heading: Text,
    pub thanks_text: Text,
    pub back_home: Text,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldLabels {
    pub first_name: Text,
    pub last_name: Text,
    pub address: Text,
    pub city: Text,
    pub state: Text,
    pub zip: Text,
    pub email: Text,
    pub phone: Text,
    pub promotion: Text,
}

/// The promotion select's labels. The value sent for "none" is `None`, as the
/// form service expects; the others send their label.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromotionOptions {
    pub none: Text,
    pub monthly: Text,
    pub annual: Text,
}

/// One entry of faq.yaml.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaqEntry {
    pub question: Text,
    /// Markdown.
    pub answer: Text,
}

/// notfound.yaml
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotFound {
    pub title: Text,
    pub description: Text,
    pub heading: Text,
    pub text: Text,
    pub link: Text,
}

/// The front matter of a Markdown page in content/pages/.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PageMeta {
    pub title: Text,
    pub description: Text,
    /// Shown before the date, for example "Last updated".
    pub date_label: Option<Text>,
    pub date: Option<Date>,
    /// Where the page is linked from: the footer unless it says otherwise.
    #[serde(default)]
    pub link: PageLink,
    /// The link's words; the title if not given.
    pub link_text: Option<Text>,
    /// Visitors arrive from outside the site (a QR code, a flyer, an ad), so
    /// no page needs to link to it.
    #[serde(default)]
    pub landing: bool,
}

/// Where a Markdown page is linked from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PageLink {
    /// In every page's footer.
    #[default]
    Footer,
    /// Nowhere: the owner links to it from their own text.
    None,
}

no_placeholders!(PageLink);

/// A Markdown page: content/pages/<slug>.md, served at /<slug>.
#[derive(Debug, Clone)]
pub struct Page {
    pub slug: String,
    pub meta: PageMeta,
    /// Markdown.
    pub body: String,
    /// The islands its text places, in order, with where each is written.
    pub islands: Vec<PageIsland>,
}

/// An island a page places with a fenced `island` block.
#[derive(Debug, Clone)]
pub struct PageIsland {
    pub name: String,
    /// Where the island's name is written.
    pub at: crate::diagnostics::Location,
    pub settings: Vec<PageIslandSetting>,
}

/// A `name: value` line of an island block.
#[derive(Debug, Clone)]
pub struct PageIslandSetting {
    pub key: String,
    pub key_at: crate::diagnostics::Location,
    pub value: serde_json::Value,
    pub value_at: crate::diagnostics::Location,
}

// Paths and descriptions of pictures are used as written.
no_placeholders!(ContentImage);

impl Fill for Page {
    fn fill(&mut self, values: &Values) {
        let Page {
            slug: _,
            meta,
            body,
            islands: _,
        } = self;
        meta.fill(values);
        *body = values.fill(body);
    }
}

fill_every_field! {
    Business { name, description, url, phone, email, formspree_form_id, city, region, postal_code, service_area, schedule, street_address, geo, opening_hours }
    ServiceArea { description, zip_codes }
    Schedule { evening_route_start, holiday_notice_hours }
    Plans { monthly, annual }
    Plan { name, price, cancellation, features }
    Chrome { skip_link, nav, menu_button, back_to_top, footer }
    Nav { how_it_works, pricing, faq, contact }
    FooterText { privacy_policy, terms_of_service }
    Home { title, description, hero, how_it_works, pricing, faq, contact }
    Hero { eyebrow, headline, lead, price_note, button, image }
    HowItWorks { heading, steps }
    Step { title, text }
    PricingText { heading, lead, toggle_label, monthly_label, annual_label, monthly_unit, annual_unit, annual_badge, monthly_button, annual_button }
    FaqText { heading }
    ContactText { heading, lead, phone_label, email_label, fields, promotion_options, promotion_note, zip_in_area, zip_outside_area, submit, submitting, privacy_note, privacy_link, timeout, thanks_heading, thanks_text, back_home }
    FieldLabels { first_name, last_name, address, city, state, zip, email, phone, promotion }
    PromotionOptions { none, monthly, annual }
    FaqEntry { question, answer }
    NotFound { title, description, heading, text, link }
    PageMeta { title, description, date_label, date, link, link_text, landing }
}
