"""Shell commands: the labelled command validation corpus and a shell-heavy tree for speed."""
