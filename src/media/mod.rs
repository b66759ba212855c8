//! What the site publishes besides pages: the owner's pictures as small copies
//! carrying only pixels ([`picture`], [`variants`], [`encode`], a
//! [`library::Library`] per build), and `content/public/` as it is ([`public`]).

pub mod avif;
pub mod colour;
mod copy_cache;
pub mod crop;
pub mod encode;
pub mod gif_file;
pub mod header;
pub mod jpeg;
pub mod library;
pub mod limits;
pub mod markup;
pub mod orientation;
pub mod picture;
mod picture_path;
pub mod png_file;
pub mod public;
pub mod publish;
pub mod refused;
pub mod svg;
pub mod variants;
pub mod webp_file;

pub use crop::Focus;
pub use library::Library;
pub use markup::{Cut, Placement};
pub use picture::{Kind, Picture};
pub use publish::Plan;
pub use refused::Refused;
