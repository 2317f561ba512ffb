/** A reference document of a skill, as the built-in engine and the read tool see it. */
export interface SkillReference {
  skill: string;
  /** File name under `skills/<skill>/references/`, e.g. `cardiac-warning-signs.md`. */
  reference: string;
  title: string;
}

/**
 * Read access to the workspace's skill packages. The catalog owns the files; chat code only needs this much,
 * so it takes the interface (and the catalog service is adapted to it at wiring time).
 */
export interface SkillLibrary {
  /** Reference documents of the given skills, in the skills' order; unknown skills contribute nothing. */
  listReferences(skillIds: readonly string[]): Promise<SkillReference[]>;
  /** The document text, or undefined when the skill or file does not exist. */
  readReference(skillId: string, reference: string): Promise<string | undefined>;
  /** SKILL.md description and body, or undefined for an unknown skill. */
  readSkill(skillId: string): Promise<{ description: string; body: string; clinical: boolean } | undefined>;
}
