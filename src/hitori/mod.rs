//! Hitori
