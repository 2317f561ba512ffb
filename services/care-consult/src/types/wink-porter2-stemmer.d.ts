declare module 'wink-porter2-stemmer' {
  /** Porter2 (English Snowball) stem of one lower-case word. */
  function stem(word: string): string;
  export = stem;
}
