/**
 * Modes for what is written about a user's sessions (session files, checkpoint stores, exports):
 * readable by the user alone, as ssh keys are. Given at creation; the umask only takes bits away.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
