//! What the site publishes besides pages: the owner's pictures as small copies
//! carrying only pixels ([`picture`], [`variants`], [`encode`], a
//! [`library::Library`] per build), and `content/public/` as it is ([`public`]).

pub mod colour;
pub mod encode;
pub mod gif_file;
pub mod jpeg;
pub mod library;
pub mod picture;
pub mod public;
pub mod svg;
pub mod variants;

pub use library::Library;
pub use picture::{Kind, Picture};
pub use variants::Placement;
