/** Code that calls a chatflow's prediction endpoint, with its real id. */
export function predictionSnippets(endpoint: string): { id: string; label: string; code: string }[] {
  return [
    {
      id: "curl",
      label: "curl",
      code: `curl ${endpoint} \\
  -X POST \\
  -H "Authorization: Bearer $SWITCHYARD_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"question": "Hey, how are you?"}'`,
    },
    {
      id: "js",
      label: "JavaScript",
      code: `const res = await fetch("${endpoint}", {
  method: "POST",
  headers: {
    Authorization: \`Bearer \${process.env.SWITCHYARD_API_KEY}\`,
    "Content-Type": "application/json",
  },
  body: JSON.stringify({ question: "Hey, how are you?" }),
});
const { text } = await res.json();
console.log(text);`,
    },
    {
      id: "python",
      label: "Python",
      code: `import os, requests

res = requests.post(
    "${endpoint}",
    headers={"Authorization": f"Bearer {os.environ['SWITCHYARD_API_KEY']}"},
    json={"question": "Hey, how are you?"},
)
print(res.json()["text"])`,
    },
  ];
}
