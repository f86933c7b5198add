"""One reader per file format; each turns the bytes of one file into units, or raises BadInput."""
