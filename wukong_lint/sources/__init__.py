"""Sources turn input (files, git changes, transcripts, markdown) into units."""
