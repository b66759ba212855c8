//! curbside: a static site generator for the Curbside Brookings website.
//!
//! A build runs [`content`] → [`render`] (with markers for Node's work) →
//! [`node`] (bundles and renders the [`islands`], minifies the [`styles`]) →
//! [`render::Placer`] → [`output`], the last two a batch of pages at a time;
//! [`pipeline`] drives it, [`serve`] previews it, [`verify`] checks a
//! deployment.
//!
//! The modules below are layers, lowest first, a blank line between layers: a
//! module uses only the layers above its own here, never one beside it or
//! below (`tests/it/structure/layers.rs` holds this). What a lower layer
//! needs from a higher one is handed in, as the pipeline hands [`media`] its
//! AVIF encoder from [`node`].

pub mod diagnostics;

pub mod confined;
pub mod text;

pub mod output;

pub mod media;

pub mod content;

pub mod islands;

pub mod node;

pub mod render;
pub mod styles;

pub mod pipeline;
pub mod verify;

pub mod check;
pub mod serve;
