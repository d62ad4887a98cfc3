//! Reports from saved result rows: summaries, baseline comparison, plots, shard merging.
