-- nvim_client.lua — Neovim's built-in LSP client (0.7: vim.lsp.start_client) on `tlop lsp`:
-- opens $TLOP_MODEL, waits for tlop's diagnostics and writes them to $TLOP_OUT, one a line,
-- "line:col:severity:message" (0-based, as the client holds them), then hover's first line.
local tlop, model, out = os.getenv('TLOP'), os.getenv('TLOP_MODEL'), os.getenv('TLOP_OUT')
vim.cmd('edit ' .. vim.fn.fnameescape(model))
local client = vim.lsp.start_client({
  name = 'tlop',
  cmd = { tlop, 'lsp' },
  root_dir = vim.fn.fnamemodify(model, ':h'),
  init_options = { stdlib = os.getenv('TLOP_STDLIB') },
})
vim.lsp.buf_attach_client(0, client)
local got = vim.wait(20000, function() return #vim.diagnostic.get(0) >= 2 end, 20)
local lines = {}
if not got then
  table.insert(lines, 'timeout: no diagnostics')
end
local diags = vim.diagnostic.get(0)
table.sort(diags, function(a, b) return a.lnum < b.lnum end)
for _, d in ipairs(diags) do
  table.insert(lines, string.format('%d:%d:%d:%s', d.lnum, d.col, d.severity, d.message))
end
-- hover on `ring`, the algorithm: the first line of what the server answers
local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 6, character = 11 } }
local reply = vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 10000)
for _, r in pairs(reply or {}) do
  if r.result then
    table.insert(lines, 'hover: ' .. vim.split(r.result.contents.value, '\n')[1])
  end
end
vim.fn.writefile(lines, out)
vim.lsp.stop_client(client)
vim.cmd('qa!')
