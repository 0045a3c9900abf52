//! pcm (being written)
