"""Code rules: vulnerable and safe Python modules, labelled line by line."""
