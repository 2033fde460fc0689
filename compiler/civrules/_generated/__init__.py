"""Code generated ahead of time from the schemas and templates (compiler/tools/); do not edit."""
