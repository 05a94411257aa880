# Shared by the wrappers in this directory: run the lspd CLI, preferring this
# repository's virtualenv (a checkout) over an `lspd` on PATH (an install).
lspd_run() {
    local here repo
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    repo="$(dirname "$here")"
    if [[ -x "$repo/.venv/bin/lspd" ]]; then
        exec "$repo/.venv/bin/lspd" "$@"
    elif [[ -x "$repo/.venv/bin/python" ]]; then
        exec "$repo/.venv/bin/python" -m lspd "$@"
    elif command -v lspd >/dev/null 2>&1; then
        exec lspd "$@"
    fi
    echo "lspd: not found: create $repo/.venv (pip install -e .) or put lspd on PATH" >&2
    exit 127
}
