//! signal (being written)
