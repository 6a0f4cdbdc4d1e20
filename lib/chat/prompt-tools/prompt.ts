import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';

/**
 * Prompt side of prompt-based tool calling: the system prompt that describes the tools and the
 * call format, and the rewrite of a conversation's tool calls and results into plain text.
 *
 * Tool list format (the fake model of the e2e fixtures reads it): one block per tool,
 *   <tool>
 *   <name>NAME</name>
 *   <description>…</description>            (only when there is one)
 *   <input_schema>{JSON schema}</input_schema>
 *   </tool>
 */

export type PromptTool = { name: string; description?: string; inputSchema: unknown };
type Message = LanguageModelV4Prompt[number];
type AssistantPart = Extract<Message, { role: 'assistant' }>['content'][number];
type ToolPart = Extract<Message, { role: 'tool' }>['content'][number];

/** A call as the model is asked to write it. */
export function toolUseText(name: string, argumentsJson: string): string {
  return `<tool_use><name>${name}</name><arguments>${argumentsJson}</arguments></tool_use>`;
}

export function toolsSystemPrompt(tools: PromptTool[]): string {
  const list = tools.map((t) =>
    [
      '<tool>',
      `<name>${t.name}</name>`,
      ...(t.description?.trim() ? [`<description>${t.description.trim()}</description>`] : []),
      `<input_schema>${JSON.stringify(t.inputSchema ?? { type: 'object' })}</input_schema>`,
      '</tool>',
    ].join('\n'),
  );
  return [
    '# Tools',
    '',
    "You can call the tools listed below. To call one, write exactly this block, with the JSON arguments matching the tool's input schema ({} when it takes none):",
    '',
    '<tool_use>',
    '<name>TOOL_NAME</name>',
    '<arguments>{"parameter": "value"}</arguments>',
    '</tool_use>',
    '',
    '- One call per <tool_use> block. To make several calls, write several blocks one after another.',
    '- After your call block(s), stop and wait. The results come back in a user message, one <tool_result name="TOOL_NAME">…</tool_result> per call, in the same order; then continue your answer.',
    '- Never write <tool_result> yourself and never invent results. Do not put the arguments in a code block.',
    '- Call a tool only when it helps; otherwise answer directly. Do not mention this format to the user.',
    '',
    'Available tools:',
    '',
    ...list,
  ].join('\n');
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** The text the model sees for a tool's output. */
export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
      return output.value;
    case 'json':
      return stringify(output.value);
    case 'error-text':
      return `Error: ${output.value}`;
    case 'error-json':
      return `Error: ${stringify(output.value)}`;
    case 'execution-denied':
      return `The user denied this call.${output.reason ? ` Reason: ${output.reason}` : ''}`;
    case 'content':
      return output.value
        .map((p) =>
          p.type === 'text' ? p.text : p.type === 'file' ? `[file: ${p.filename ?? p.mediaType}]` : '',
        )
        .filter(Boolean)
        .join('\n');
  }
}

export function toolResultText(name: string, output: LanguageModelV4ToolResultOutput): string {
  return `<tool_result name="${name}">\n${toolOutputText(output)}\n</tool_result>`;
}

/** A call's input as written in the `<arguments>` tag (an invalid call keeps its raw text). */
function argumentsText(input: unknown): string {
  return typeof input === 'string' ? input : stringify(input ?? {});
}

function rewriteAssistant(content: AssistantPart[]): AssistantPart[] {
  const out: AssistantPart[] = [];
  const uses: string[] = [];
  for (const part of content) {
    if (part.type === 'tool-call') uses.push(toolUseText(part.toolName, argumentsText(part.input)));
    else if (part.type !== 'tool-result') out.push(part);
  }
  if (!uses.length) return out;
  const calls = uses.join('\n');
  const last = out.at(-1);
  if (last?.type === 'text') {
    const sep = last.text === '' || /\s$/.test(last.text) ? '' : '\n';
    out[out.length - 1] = { ...last, text: `${last.text}${sep}${calls}` };
  } else out.push({ type: 'text', text: calls });
  return out;
}

function resultsText(content: ToolPart[]): string {
  return content
    .flatMap((p) => (p.type === 'tool-result' ? [toolResultText(p.toolName, p.output)] : []))
    .join('\n\n');
}

/** The prompt for a model without tool support: calls become `<tool_use>` text, results `<tool_result>` user messages. */
export function promptToText(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  const out: LanguageModelV4Prompt = [];
  let resultsAt = -1; // index in `out` of the user message holding the latest run of tool results
  for (const message of prompt) {
    if (message.role === 'tool') {
      const text = resultsText(message.content);
      if (!text) continue;
      const prev = out[resultsAt];
      if (resultsAt === out.length - 1 && prev?.role === 'user' && prev.content[0]?.type === 'text') {
        out[resultsAt] = { ...prev, content: [{ type: 'text', text: `${prev.content[0].text}\n\n${text}` }] };
      } else {
        out.push({ role: 'user', content: [{ type: 'text', text }] });
        resultsAt = out.length - 1;
      }
      continue;
    }
    if (message.role === 'assistant') {
      const content = rewriteAssistant(message.content);
      if (content.length) out.push({ ...message, content });
      continue;
    }
    out.push(message);
  }
  return out;
}

/** Whether the prompt holds anything a model without tool support cannot take. */
export function promptHasToolParts(prompt: LanguageModelV4Prompt): boolean {
  return prompt.some(
    (m) =>
      m.role === 'tool' ||
      (m.role === 'assistant' && m.content.some((p) => p.type === 'tool-call' || p.type === 'tool-result')),
  );
}
