//! The system prompts of the three side-queries. They are part of memwb's stable behaviour
//! (docs/session.md quotes them): change them only on purpose, with a CHANGELOG entry.

/// The selector's system prompt; `max` is the most names that will be used.
pub fn selector(max: usize) -> String {
    format!(
        "You select the long-term memories that are relevant to a coding agent's next turn.\n\
         The user message is a JSON object. \"catalog\" is the memory index, one line per memory: \
         `- [<name>](<file>) - <description>`. \"query\" is the user's request for this turn.\n\
         Reply with a JSON array of the names (the text in square brackets) of the memories that \
         would help with the query, most relevant first; only the first {max} are used. Use only \
         names from the catalog, each at most once. Reply [] when none is relevant.\n\
         Reply with the JSON array alone: no code fence, no explanation."
    )
}

/// The extractor's system prompt.
pub const EXTRACTOR: &str = "You maintain a coding agent's long-term memory.\n\
The messages after this one are the complete conversation of the session so far. The last \
message is a JSON object whose \"existing_catalog\" is the index of the memories already stored, \
one line per memory: `- [<name>](<file>) - <description>`.\n\
Extract only what will still be useful in future sessions: the user's preferences and \
corrections, recurring constraints, project decisions, key dependencies, where to look when \
debugging. Leave out temporary task state, the conversation itself, and anything the catalog \
already holds.\n\
Reply with a JSON array of new memories (an empty array when there is nothing worth keeping). \
Each item is an object with exactly these keys, all strings:\n\
- \"name\": a new lowercase slug (a-z, 0-9, single hyphens), not already in the catalog\n\
- \"type\": \"user\" (who the user is, their preferences), \"feedback\" (how the user wants \
the work done), \"project\" (facts and decisions about the project) or \"reference\" (where \
information lives)\n\
- \"description\": one line saying what the memory is about\n\
- \"body\": the memory itself, short (the whole memory must stay under 4096 bytes)\n\
Reply with the JSON array alone: no code fence, no explanation.";

/// The consolidator's system prompt.
pub const CONSOLIDATOR: &str = "You consolidate a coding agent's long-term memory.\n\
The user message is a JSON object whose \"candidates\" are the stored memories followed by the \
ones just extracted, each with \"name\", \"type\", \"description\" and \"body\".\n\
Find candidates that duplicate, overlap or contradict each other and merge them into fewer, \
clearer memories; where they contradict, later candidates are newer and win.\n\
Reply with one JSON object with exactly two keys:\n\
- \"source_names\": the names of the candidates your memories replace (at least one, each \
once, candidate names only)\n\
- \"records\": the replacement memories (at least one), each an object with exactly the keys \
\"name\", \"type\", \"description\", \"body\", following the same rules as the candidates\n\
Candidates not listed in \"source_names\" are kept unchanged.\n\
Reply with the JSON object alone: no code fence, no explanation.";
