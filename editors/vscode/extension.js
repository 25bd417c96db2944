// extension.js — starts `tlop lsp` (the setting tlop.path) for .tlop files.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('tlop');
  const command = config.get('path') || 'tlop';
  const initializationOptions = { include: config.get('include') || [] };
  if (config.get('stdlib')) initializationOptions.stdlib = config.get('stdlib');
  client = new LanguageClient(
    'tlop',
    'tlop',
    { command, args: ['lsp'] },
    { documentSelector: [{ scheme: 'file', language: 'tlop' }], initializationOptions }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
