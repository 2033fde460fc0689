"""The JSON Schemas of the example-dice family's file kinds."""
