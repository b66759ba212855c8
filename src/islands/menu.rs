//! The props of the menu island (frontend/src/islands/menu.tsx): the header
//! navigation's links and labels.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::props::FormEndpoint;
use super::registry::IslandProps;
use crate::content::Site;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct MenuLink {
    pub href: String,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MenuProps {
    /// Text of the toggle button shown on small screens.
    pub label: String,
    /// Accessible name of the nav landmark.
    pub nav_label: String,
    pub links: Vec<MenuLink>,
}

impl MenuProps {
    pub fn new(site: &Site) -> Self {
        let nav = &site.chrome.nav;
        let links = [
            ("how-it-works", &nav.how_it_works),
            ("pricing", &nav.pricing),
            ("faq", &nav.faq),
            ("contact", &nav.contact),
        ]
        .into_iter()
        .map(|(id, label)| MenuLink {
            href: format!("/#{id}"),
            text: label.to_string(),
        })
        .collect();
        MenuProps {
            label: site.chrome.menu_button.to_string(),
            nav_label: "Main".into(),
            links,
        }
    }
}

impl IslandProps for MenuProps {
    fn from_site(site: &Site, _: &FormEndpoint) -> Self {
        MenuProps::new(site)
    }
}
