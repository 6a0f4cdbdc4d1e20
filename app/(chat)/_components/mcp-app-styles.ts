import type { McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

export const isDark = () => document.documentElement.classList.contains('dark');

/** The host's look as MCP Apps style variables (the same zinc palette as the chat), for the current theme. */
export function styleVariables(dark: boolean): McpUiStyles {
  const vars: Partial<McpUiStyles> = {
    '--color-background-primary': dark ? '#09090b' : '#ffffff',
    '--color-background-secondary': dark ? '#18181b' : '#f4f4f5',
    '--color-text-primary': dark ? '#f4f4f5' : '#18181b',
    '--color-text-secondary': dark ? '#a1a1aa' : '#71717a',
    '--color-border-primary': dark ? '#3f3f46' : '#e4e4e7',
    '--color-text-danger': dark ? '#fca5a5' : '#b91c1c',
    '--font-sans': 'ui-sans-serif, system-ui, sans-serif',
    '--font-mono': 'ui-monospace, SFMono-Regular, monospace',
    '--border-radius-md': '0.375rem',
  };
  return vars as McpUiStyles;
}
