package seed

import (
	"bytes"
	"encoding/json"
)

type obj = map[string]any

func strSchema(minLen int) obj {
	if minLen > 0 {
		return obj{"type": "string", "minLength": minLen}
	}
	return obj{"type": "string"}
}

func enumSchema(values ...string) obj { return obj{"type": "string", "enum": values} }

func object(props obj, required ...string) obj {
	o := obj{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// datetimePattern matches the seed's UTC datetimes; the range of each field
// is checked by [Validate] (JSON Schema cannot express month lengths).
const datetimePattern = `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$`

func datetimeSchema() obj {
	return obj{"type": "string", "format": "date-time", "pattern": datetimePattern}
}

func countsSchema() obj {
	return object(obj{"accepted": obj{"type": "number"}, "rejected": obj{"type": "number"}}, "accepted", "rejected")
}

// JSONSchemaValue returns the seed's JSON Schema (draft-07) as a value tree.
// Nested objects reject unknown keys; the root allows them (they are kept
// and reported as warnings by [Validate]).
func JSONSchemaValue() map[string]any {
	learning := object(obj{
		"id": strSchema(0), "content": strSchema(1), "source": strSchema(1),
		"extractedAt": datetimeSchema(), "confirmedAt": datetimeSchema(),
		"confirmed": obj{"type": "boolean"}, "tags": obj{"type": "array", "items": strSchema(0)},
	}, "id", "content", "source", "extractedAt", "confirmed", "tags")
	proposal := object(obj{
		"id": strSchema(0), "type": enumSchema(TypePattern, TypeInsight, TypeSelfKnowledge),
		"content": strSchema(1), "source": strSchema(1), "extractedAt": datetimeSchema(),
		"status":     enumSchema(StatusPending, StatusAccepted, StatusRejected),
		"method":     enumSchema(MethodACR, MethodRegex),
		"confidence": obj{"type": "number"}, "decidedAt": datetimeSchema(),
		"project": strSchema(0),
	}, "id", "type", "content", "source", "extractedAt", "status")
	stats := object(obj{
		"accepted": obj{"type": "number"}, "rejected": obj{"type": "number"},
		"byType":        object(obj{TypePattern: countsSchema(), TypeInsight: countsSchema(), TypeSelfKnowledge: countsSchema()}, TypePattern, TypeInsight, TypeSelfKnowledge),
		"confidenceSum": countsSchema(), "confidenceCount": countsSchema(),
	}, "accepted", "rejected", "byType", "confidenceSum", "confidenceCount")
	learnings := obj{"type": "array", "items": learning}
	root := object(obj{
		"version": obj{"type": "string", "pattern": `^1\.\d+\.\d+$`},
		"identity": object(obj{
			"principalName": strSchema(1), "aiName": strSchema(1), "catchphrase": strSchema(1),
			"voiceId": strSchema(0),
			"preferences": object(obj{
				"responseStyle": enumSchema("concise", "detailed", "adaptive"),
				"timezone":      strSchema(0), "locale": strSchema(0),
			}, "responseStyle", "timezone", "locale"),
		}, "principalName", "aiName", "catchphrase", "voiceId", "preferences"),
		"learned": object(obj{"patterns": learnings, "insights": learnings, "selfKnowledge": learnings},
			"patterns", "insights", "selfKnowledge"),
		"state": object(obj{
			"lastSessionId": strSchema(0), "lastSessionAt": datetimeSchema(),
			"proposals":      obj{"type": "array", "items": proposal},
			"activeProjects": obj{"type": "array", "items": strSchema(0)},
			"checkpointRef":  strSchema(0), "extractionStats": stats,
		}, "proposals", "activeProjects"),
	}, "version", "identity", "learned", "state")
	root["additionalProperties"] = true
	root["$schema"] = "http://json-schema.org/draft-07/schema#"
	root["$id"] = "https://paige.dev/schemas/seed.schema.json"
	root["title"] = "PAI seed"
	root["description"] = "The personal seed: identity, learned knowledge and session state."
	return root
}

// JSONSchema returns [JSONSchemaValue] encoded like seed files: sorted keys,
// 2-space indentation, trailing newline.
func JSONSchema() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(JSONSchemaValue()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
