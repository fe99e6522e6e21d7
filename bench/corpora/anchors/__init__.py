"""Anchors: a generated anchors file for the `anchors fmt` benchmark."""
