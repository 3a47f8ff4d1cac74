"""Execute-in-place flash images: encrypted images of a program for the XIP controller."""
