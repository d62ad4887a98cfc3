//! The harness: job planning, seeding, parallel execution, verification, records and run metadata.
pub mod record;
