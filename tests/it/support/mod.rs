//! What the test modules share: fixture sites run through the real binary,
//! photos made as a phone makes them, and the preview server over sockets.

pub mod camera;
pub mod decoded;
pub mod fixture;
pub mod photos;
pub mod recording;
pub mod server;
