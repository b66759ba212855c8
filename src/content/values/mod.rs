//! Validated values. Each checks itself while the YAML is read, so serde_yaml
//! reports any mistake at the line and column of the value.

mod checked;
mod contact_details;
mod dates;
mod focal_point;
mod price;
mod schemas;
mod text;

pub use checked::take_failure;
pub use contact_details::{Email, FormId, Phone, SiteUrl, ZipCode, is_email};
pub use dates::{Date, TimeOfDay};
pub use focal_point::FocalPoint;
pub use price::Price;
pub use text::Text;
