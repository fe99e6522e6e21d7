"""Rule schema, loading and compile cache, prefilter, matchers and the scan loop."""
