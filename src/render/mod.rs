//! Pages from content and layouts: the template context, island markup,
//! structured data, and the site's small text files.

mod assets;
mod context;
pub mod json;
mod layout_checks;
pub mod layouts;
mod markers;
mod minify;
pub mod placements;
mod placer;
mod renderer;
pub mod share_card;
mod site_files;
pub mod structured_data;

pub use assets::{AssetUrls, BuiltAssets};
pub use context::{PAGE_IMAGE_SIZES, RenderInput};
pub use layouts::Layouts;
pub use placer::{Placer, islands_to_render};
pub use renderer::{PageRenderer, pages};
pub use site_files::{robots, sitemap};
