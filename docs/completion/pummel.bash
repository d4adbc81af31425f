# bash completion for pummel, made by `pummel completion bash`.
# Load it from ~/.bashrc: source <(pummel completion bash)
# or install it: pummel completion bash > /etc/bash_completion.d/pummel
_pummel() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            run|demo|capacity|serve|report|compare|suite|version|completion|man|help) cmd=${COMP_WORDS[i]}; break ;;
            -*) ;;
            *) break ;;
        esac
    done
    case $prev in
        --progress) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --format)
            local formats="text json markdown"
            [[ $cmd == compare ]] && formats="text markdown"
            COMPREPLY=($(compgen -W "$formats" -- "$cur")); return ;;
        --engine) COMPREPLY=($(compgen -W "auto loop goroutine" -- "$cur")); return ;;
        --body-file|--cacert|--cert|--hdr-log|--key|--log-requests|--output|--plot|--script|--server-log|--targets|--unix|-o|-s) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --addr|--body|--capacity|--confirm|--connect-to|--connections|--content-type|--delay|--duration|--engine|--exec|--expect-body|--expect-status|--export|--export-histograms|--export-interval|--export-label|--format|--from|--header|--label|--max-body|--max-regression|--max-steps|--method|--pid|--pipeline|--precision|--progress|--rate|--ready-status|--ready-timeout|--ready-url|--requests|--resolve|--runs|--sample-interval|--settle|--shard|--start-at|--step|--step-warmup|--streams|--threads|--threshold|--timeout|--to|--warmup|--warmup-rate|--warmup-requests|-H|-R|-T|-b|-c|-d|-m|-n|-t) COMPREPLY=(); return ;;
    esac
    local flags
    case $cmd in
        "") flags="-c --connections -t --threads -d --duration -n --requests -R --rate --warmup --warmup-rate --warmup-requests --timeout --pipeline --http2 --http3 --streams --shard --start-at --engine -k --keepalive --no-keepalive -m --method -H --header -b --body --body-file --max-body -T --content-type --targets -s --script --pid --pid-tree --sample-interval --exec --exec-shell --ready-url --ready-status --ready-timeout --settle --server-log --runs --expect-status --expect-body --unix --connect-to --resolve --insecure --cacert --cert --key --latency -o --output --log-requests --hdr-log --threshold --format --progress -q --quiet --dry-run --show-secrets --export --export-interval --export-label --export-histograms -v --version -h --help" ;;
        run) flags="-c --connections -t --threads -d --duration -n --requests -R --rate --warmup --warmup-rate --warmup-requests --timeout --pipeline --http2 --http3 --streams --shard --start-at --engine -k --keepalive --no-keepalive -m --method -H --header -b --body --body-file --max-body -T --content-type --targets -s --script --pid --pid-tree --sample-interval --exec --exec-shell --ready-url --ready-status --ready-timeout --settle --server-log --runs --expect-status --expect-body --unix --connect-to --resolve --insecure --cacert --cert --key --latency -o --output --log-requests --hdr-log --threshold --format --progress -q --quiet --dry-run --show-secrets --export --export-interval --export-label --export-histograms -h --help" ;;
        demo) flags="-c --connections -t --threads -d --duration -n --requests -R --rate --warmup --warmup-rate --warmup-requests --timeout --pipeline --http3 --shard --start-at --engine -k --keepalive --no-keepalive -m --method -H --header -b --body --body-file --max-body -T --content-type -s --script --expect-status --expect-body --latency -o --output --log-requests --hdr-log --threshold --format --progress -q --quiet --dry-run --show-secrets --export --export-interval --export-label --export-histograms -h --help" ;;
        capacity) flags="-c --connections -t --threads -d --duration -n --requests -R --rate --warmup --warmup-rate --warmup-requests --timeout --pipeline --http2 --http3 --streams --shard --start-at --engine -k --keepalive --no-keepalive -m --method -H --header -b --body --body-file --max-body -T --content-type --targets -s --script --pid --pid-tree --sample-interval --exec --exec-shell --ready-url --ready-status --ready-timeout --settle --server-log --runs --expect-status --expect-body --unix --connect-to --resolve --insecure --cacert --cert --key --latency -o --output --log-requests --hdr-log --threshold --format --progress -q --quiet --dry-run --show-secrets --export --export-interval --export-label --export-histograms --step --step-warmup --from --to --precision --confirm --max-steps -h --help" ;;
        serve) flags="--addr --delay --capacity -h --help" ;;
        report) flags="--parallel --format -o --output --latency --plot --plots --label -h --help" ;;
        compare) flags="--format --max-regression -h --help" ;;
        suite) flags="-o --output --runs -q --quiet --export --export-interval --export-label --export-histograms -h --help" ;;
        version) flags="-h --help" ;;
        completion) flags="-h --help" ;;
        man) flags="-h --help" ;;
        help) flags="-h --help" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    case $cmd in
        completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
        help) COMPREPLY=($(compgen -W "run demo capacity serve report compare suite version completion man help" -- "$cur")) ;;
        "") COMPREPLY=($(compgen -W "run demo capacity serve report compare suite version completion man help" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o default -F _pummel pummel
