// Test and benchmark helper: the chat's Markdown steps up to the HTML tree (react-markdown's, with the
// plugins of markdown-config.tsx), without React.
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkMath, { singleDollarTextMath: false })
  .use(remarkRehype);

export const toHtmlTree = (text: string) => processor.runSync(processor.parse(text));
