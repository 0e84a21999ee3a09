-- Loaded with --cmd, before any file is read: notes each file the language server publishes
-- diagnostics for, waits until every file open in a window has had them, then writes what Neovim
-- itself holds for each buffer (vim.diagnostic.get) as JSON to $HOOKLENS_NVIM_OUT and quits.
-- Neovim 0.7 API only (Debian 12): no vim.lsp.start, no -l.
local out_path = assert(os.getenv('HOOKLENS_NVIM_OUT'), 'HOOKLENS_NVIM_OUT is not set')
local timeout_ms = tonumber(os.getenv('HOOKLENS_NVIM_TIMEOUT_MS') or '60000')

local published = {}
local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  default_handler(err, result, ctx, config)
  if result then
    published[result.uri] = true
  end
end

local function file_buffers()
  local bufs = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    local buf = vim.api.nvim_win_get_buf(win)
    if vim.api.nvim_buf_get_name(buf) ~= '' then
      table.insert(bufs, buf)
    end
  end
  return bufs
end

local function all_published()
  for _, buf in ipairs(file_buffers()) do
    if not published[vim.uri_from_bufnr(buf)] then
      return false
    end
  end
  return true
end

local function report()
  local files = {}
  for _, buf in ipairs(file_buffers()) do
    local diagnostics = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local lsp = (d.user_data or {}).lsp or {}
      local related = {}
      for _, r in ipairs(lsp.relatedInformation or {}) do
        table.insert(related, { line = r.location.range.start.line + 1, message = r.message })
      end
      table.insert(diagnostics, {
        line = d.lnum + 1,
        column = d.col + 1,
        code = d.code,
        source = d.source,
        severity = vim.diagnostic.severity[d.severity],
        message = d.message,
        docs = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
        related = related,
      })
    end
    local clients = {}
    -- buf_get_clients is the 0.7 name; newer releases replace it with get_clients.
    local attached = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)
    for _, client in pairs(attached) do
      table.insert(clients, { id = client.id, name = client.name, pid = client.rpc.pid })
    end
    files[vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':t')] = {
      filetype = vim.bo[buf].filetype,
      clients = clients,
      diagnostics = diagnostics,
    }
  end
  return files
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    if not vim.wait(timeout_ms, all_published, 50) then
      io.stderr:write(string.format('collect.lua: no diagnostics for every file within %d ms; published: %s\n',
        timeout_ms, vim.inspect(published)))
      vim.cmd('cquit 3')
      return
    end
    local f = assert(io.open(out_path, 'w'))
    f:write(vim.fn.json_encode(report()))
    f:close()
    vim.cmd('qall!')
  end,
})
