//! Load and validate everything in `content/` into one typed [`Site`], with
//! the figures derived from it and every `{placeholder}` filled in. Every
//! mistake is reported with its file, line and column and what to change.

mod derived;
mod faq_pictures;
pub mod fill;
mod load;
pub mod markdown;
pub mod model;
mod pages;
pub mod phrases;
mod placeholder_values;
pub mod placeholders;
pub mod schema;
mod site;
pub mod spelling;
pub mod values;
mod warnings;
pub mod yaml;
mod yaml_errors;

pub use derived::{Derived, WholeMonths};
pub use load::load;
pub use model::*;
pub use site::{FOOTER_PAGES_LIMIT, PAGES_FOLDER, REQUIRED_PAGES, Site};
pub use warnings::{sample_values, warnings};
