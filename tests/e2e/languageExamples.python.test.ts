// The preview environment example in Python under the real engine: support/languageExample.ts.
import { describeLanguageExample } from "./support/languageExample";

describeLanguageExample("python");
