/** The API's error when no model provider is configured (the UI says it by role: NoProviderNotice). */
export const NO_PROVIDER_MESSAGE =
  'No model provider is configured. Set OPENAI_API_KEY (and OPENAI_BASE_URL for DeepSeek, Ollama, vLLM or any other OpenAI-compatible server) and restart the app, or ask an admin to add a provider.';

/** Whether an error text is that one (the page's notice already says it). */
export const isNoProviderError = (text: string) => text.includes('No model provider is configured');
