//! What the site publishes besides its pages: the owner's pictures, made
//! into small copies that carry nothing but pixels ([`picture`], [`variants`],
//! [`encode`], kept by a [`library::Library`] for each build), and the files
//! of `content/public/`, published as they are ([`public`]).

pub mod colour;
pub mod crop;
pub mod encode;
pub mod gif_file;
pub mod jpeg;
pub mod library;
pub mod markup;
pub mod picture;
pub mod public;
pub mod svg;
pub mod variants;

pub use crop::Focus;
pub use library::Library;
pub use markup::{Cut, Placement};
pub use picture::{Kind, Picture};
