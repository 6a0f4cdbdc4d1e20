/** The longest text one message may carry (POST /api/chat; the message box counts against it too). */
export const MAX_MESSAGE_CHARS = 100_000;
