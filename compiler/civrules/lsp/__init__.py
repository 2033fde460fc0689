"""The language server (`civrules lsp`): :mod:`civrules.lsp.server` speaks LSP, :mod:`civrules.lsp.index`
knows where ids are defined and used."""
