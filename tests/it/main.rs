//! Integration tests, one crate with a module per area: one binary to build and link
//! (each separate test crate paid its own LTO link; 25 of them made the cold test build 27 min).

mod cli_bad_input;
mod cli_external;
mod cli_hostile;
mod cli_interrupt;
mod cli_limits;
mod cli_messages;
mod cli_orphans;
mod cli_paths;
mod cli_plan;
mod cli_provenance;
mod cli_reliability;
mod cli_reliability4;
mod cli_repeat;
mod cli_repro;
mod cli_run;
mod cli_shard_auto;
mod cli_sweep;
mod cli_tty;
mod common;
mod external_overhead;
mod external_python;
mod external_qqwing;
mod external_worker;
mod harness_isolation;
mod harness_order;
mod history;
mod hitori_corpus;
mod hitori_scratch_alloc;
mod layering;
mod parse_props;
mod report_ab;
mod report_cli;
mod report_effort;
mod report_html;
mod report_inputs;
mod report_stream;
mod sudoku_corpus;

mod docs;
mod docs_samples;
mod sudoku_order;
