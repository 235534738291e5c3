/**
 * Generic units for budgeted selection. Compaction packs message blocks with these; the CICL
 * card packer packs memory cards. Nothing here knows about messages or cards.
 */
export interface SelectUnit {
  /** Unique among the units of one call. */
  id: string;
  /** Cost of keeping the unit (tokens, > 0 for anything that costs budget). */
  tokens: number;
  /** Relevance to the query or goal, normalised to 0..1 by the caller. */
  relevance: number;
  /** Coarse group (message type, turn window, card type …). */
  group: string;
  /**
   * Id of a unit this one extends (a longer cut of the same message after a shorter one): it may
   * be selected only once that unit is. Units form chains; a selection is always a prefix of each chain.
   */
  after?: string;
}

/**
 * Pairwise similarity in 0..1: how much of a's information b already holds (1 = all of it).
 * May be asymmetric (containment); the first argument is always the unit being judged.
 */
export type Similarity = (a: SelectUnit, b: SelectUnit) => number;

/** Scores of one unit at the moment it was selected or last evaluated. */
export interface MigScore {
  id: string;
  relevance: number;
  /** Max similarity to anything already selected (or given as context). */
  redundancy: number;
  /** relevance − λ · redundancy. */
  mig: number;
}

export interface GroupScore {
  group: string;
  /** Sum of the group's unit tokens: the most the group can use. */
  tokens: number;
  relevance: number;
  redundancy: number;
  mig: number;
  /** Tokens the coarse stage gives the group. */
  allocation: number;
  /** Tokens its fine stage actually selected (leftover then flows to the global fill). */
  used: number;
}
