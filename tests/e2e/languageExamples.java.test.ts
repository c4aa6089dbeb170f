// The preview environment example in Java under the real engine: support/languageExample.ts.
import { describeLanguageExample } from "./support/languageExample";

describeLanguageExample("java");
