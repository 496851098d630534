/** The permission question's fixed answers, apart from the policy so that a face can name them without loading it (the ACP bundle). */
export const ALLOW_ONCE = "Allow once";
export const DENY = "Deny";
