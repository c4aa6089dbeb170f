// The preview environment example in YAML under the real engine: support/languageExample.ts.
import { describeLanguageExample } from "./support/languageExample";

describeLanguageExample("yaml");
