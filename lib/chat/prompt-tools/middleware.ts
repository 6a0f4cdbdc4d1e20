import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { type PromptTool, promptHasToolParts, promptToText, toolsSystemPrompt } from './prompt';
import { parseToolUses, randomToolCallId, ToolUseParser, type ToolUseEvent } from './tool-use-parser';

/**
 * Tool calling for models without native function calling: the tools go into the system prompt
 * (no `tools` field is sent), and `<tool_use>` blocks in the answer come back as tool-call parts.
 */

type CallEvent = Extract<ToolUseEvent, { type: 'tool-call' }>;
/** Per transformed call: may the answer call tools (false when tool choice is none, or there are no tools)? */
type Mode = { allowCalls: boolean };

const INCOMPLETE_NOTE = '\n[unfinished call: the <tool_use> block was never closed with </tool_use>]';

/** The input the AI SDK parses: an unclosed block is made invalid on purpose, so the model is told to redo it. */
function callInput(call: CallEvent): string {
  return call.incomplete ? `${call.argumentsJson}${INCOMPLETE_NOTE}` : call.argumentsJson;
}

function choiceNote(choice: LanguageModelV4CallOptions['toolChoice']): string {
  if (choice?.type === 'required') return '\n\nIn this answer you must call at least one tool.';
  if (choice?.type === 'tool') return `\n\nIn this answer you must call the tool ${choice.toolName}.`;
  return '';
}

function withSystem(prompt: LanguageModelV4Prompt, text: string): LanguageModelV4Prompt {
  const [first, ...rest] = prompt;
  if (first?.role === 'system') return [{ ...first, content: `${first.content}\n\n${text}` }, ...rest];
  return [{ role: 'system', content: text }, ...prompt];
}

const toolCallsReason = (reason: LanguageModelV4FinishReason): LanguageModelV4FinishReason => ({
  unified: 'tool-calls',
  raw: reason.raw,
});

export function promptToolsMiddleware(): LanguageModelV4Middleware {
  const modes = new WeakMap<LanguageModelV4CallOptions, Mode>();

  return {
    specificationVersion: 'v4',

    transformParams: async ({ params }) => {
      const tools: PromptTool[] = (params.tools ?? []).flatMap((t) =>
        t.type === 'function'
          ? [{ name: t.name, description: t.description, inputSchema: t.inputSchema }]
          : [],
      );
      if (!tools.length && !promptHasToolParts(params.prompt)) return params;
      const allowCalls = tools.length > 0 && params.toolChoice?.type !== 'none';
      const note = allowCalls
        ? toolsSystemPrompt(tools) + choiceNote(params.toolChoice)
        : 'Tools are not available for this answer: answer directly, without any <tool_use> block.';
      const { tools: _tools, toolChoice: _choice, ...rest } = params;
      const transformed: LanguageModelV4CallOptions = {
        ...rest,
        prompt: withSystem(promptToText(params.prompt), note),
      };
      modes.set(transformed, { allowCalls });
      return transformed;
    },

    wrapStream: async ({ doStream, params }) => {
      const mode = modes.get(params);
      const result = await doStream();
      if (!mode) return result;
      const parser = new ToolUseParser(randomToolCallId);
      let textId: string | undefined; // the open text block, if any
      let blocks = 0;
      let baseId = 'txt';
      let pendingSpace = ''; // whitespace held until visible text follows it
      let called = false;
      let ended = false;

      const emit = (
        events: ToolUseEvent[],
        out: TransformStreamDefaultController<LanguageModelV4StreamPart>,
      ) => {
        for (const e of events) {
          if (e.type === 'text') {
            let text = pendingSpace + e.text;
            if (!textId && !text.trim()) {
              pendingSpace = text;
              continue;
            }
            pendingSpace = '';
            if (!textId) {
              if (called) text = text.trimStart(); // the text after a call starts a fresh block
              textId = blocks++ === 0 ? baseId : `${baseId}-${blocks}`;
              out.enqueue({ type: 'text-start', id: textId });
            }
            out.enqueue({ type: 'text-delta', id: textId, delta: text });
            continue;
          }
          if (textId) out.enqueue({ type: 'text-end', id: textId });
          textId = undefined;
          pendingSpace = '';
          if (e.type !== 'tool-call' || !mode.allowCalls) continue;
          called = true;
          out.enqueue({ type: 'tool-input-start', id: e.id, toolName: e.name });
          out.enqueue({ type: 'tool-input-delta', id: e.id, delta: callInput(e) });
          out.enqueue({ type: 'tool-input-end', id: e.id });
          out.enqueue({ type: 'tool-call', toolCallId: e.id, toolName: e.name, input: callInput(e) });
        }
      };
      const finishText = (out: TransformStreamDefaultController<LanguageModelV4StreamPart>) => {
        if (ended) return;
        ended = true;
        emit(parser.end(), out);
        if (textId) out.enqueue({ type: 'text-end', id: textId });
        textId = undefined;
      };

      const transform = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, out) {
          switch (part.type) {
            case 'text-start':
              if (blocks === 0) baseId = part.id;
              return;
            case 'text-end':
              return;
            case 'text-delta':
              return emit(parser.push(part.delta), out);
            case 'finish':
              finishText(out);
              return out.enqueue(
                called ? { ...part, finishReason: toolCallsReason(part.finishReason) } : part,
              );
            default:
              out.enqueue(part);
          }
        },
        flush(out) {
          finishText(out);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(transform) };
    },

    wrapGenerate: async ({ doGenerate, params }) => {
      const mode = modes.get(params);
      const result = await doGenerate();
      if (!mode) return result;
      const content: LanguageModelV4Content[] = [];
      let called = false;
      for (const part of result.content) {
        if (part.type !== 'text') {
          content.push(part);
          continue;
        }
        for (const e of parseToolUses(part.text)) {
          if (e.type === 'text') {
            const prev = content.at(-1);
            if (prev?.type === 'text') content[content.length - 1] = { ...prev, text: prev.text + e.text };
            else content.push({ type: 'text', text: e.text });
          } else if (e.type === 'tool-call' && mode.allowCalls) {
            called = true;
            content.push({ type: 'tool-call', toolCallId: e.id, toolName: e.name, input: callInput(e) });
          }
        }
      }
      const visible = content.filter((p) => p.type !== 'text' || p.text.trim() !== '');
      return {
        ...result,
        content: visible,
        finishReason: called ? toolCallsReason(result.finishReason) : result.finishReason,
      };
    },
  };
}
