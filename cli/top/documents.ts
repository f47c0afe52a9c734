// The GraphQL documents Vector 0.54's `vector top` sends, copied unchanged from its API client (so svc top
// speaks to a Vector instance as well as to svc, and svc's API is exercised the way Vector's clients use it).

export const HEALTH_QUERY = `query HealthQuery {
  health
}`;

export const COMPONENTS_QUERY = `query ComponentsQuery($first: Int!) {
    components(first: $first) {
        edges {
            node {
                __typename
                componentId
                componentType
                ... on Source {
                    outputs {
                        outputId
                        sentEventsTotal {
                            sentEventsTotal
                        }
                    }
                    metrics {
                        __typename
                        receivedBytesTotal {
                            receivedBytesTotal
                        }
                        receivedEventsTotal {
                            receivedEventsTotal
                        }
                        sentEventsTotal {
                            sentEventsTotal
                        }
                    }
                }
                ... on Transform {
                    outputs {
                        outputId
                        sentEventsTotal {
                            sentEventsTotal
                        }
                    }
                    metrics {
                        __typename
                        receivedEventsTotal {
                            receivedEventsTotal
                        }
                        sentEventsTotal {
                            sentEventsTotal
                        }
                    }
                }
                ... on Sink {
                    metrics {
                        __typename
                        receivedEventsTotal {
                            receivedEventsTotal
                        }
                        sentBytesTotal {
                            sentBytesTotal
                        }
                        sentEventsTotal {
                            sentEventsTotal
                        }
                    }
                }
            }
        }
    }
}`;

export const COMPONENT_ADDED = `subscription ComponentAddedSubscription {
  componentAdded {
    __typename
    componentId
    componentType
  }
}`;

export const COMPONENT_REMOVED = `subscription ComponentRemovedSubscription {
    componentRemoved {
        __typename
        componentId
    }
}`;

export const RECEIVED_EVENTS_TOTALS = `subscription ComponentReceivedEventsTotalsSubscription($interval: Int!) {
    componentReceivedEventsTotals(interval: $interval) {
        componentId
        metric {
            receivedEventsTotal
        }
    }
}`;

export const RECEIVED_EVENTS_THROUGHPUTS = `subscription ComponentReceivedEventsThroughputsSubscription($interval: Int!) {
    componentReceivedEventsThroughputs(interval: $interval) {
        componentId
        throughput
    }
}`;

export const RECEIVED_BYTES_TOTALS = `subscription ComponentReceivedBytesTotalsSubscription($interval: Int!) {
    componentReceivedBytesTotals(interval: $interval) {
        componentId
        metric {
            receivedBytesTotal
        }
    }
}`;

export const RECEIVED_BYTES_THROUGHPUTS = `subscription ComponentReceivedBytesThroughputsSubscription($interval: Int!) {
    componentReceivedBytesThroughputs(interval: $interval) {
        componentId
        throughput
    }
}`;

export const SENT_EVENTS_TOTALS = `subscription ComponentSentEventsTotalsSubscription($interval: Int!) {
    componentSentEventsTotals(interval: $interval) {
        componentId
        outputs {
            outputId
            sentEventsTotal {
                sentEventsTotal
            }
        }
        metric {
            sentEventsTotal
        }
    }
}`;

export const SENT_EVENTS_THROUGHPUTS = `subscription ComponentSentEventsThroughputsSubscription($interval: Int!) {
    componentSentEventsThroughputs(interval: $interval) {
        componentId
        outputs {
            outputId
            throughput
        }
        throughput
    }
}`;

export const SENT_BYTES_TOTALS = `subscription ComponentSentBytesTotalsSubscription($interval: Int!) {
    componentSentBytesTotals(interval: $interval) {
        componentId
        metric {
            sentBytesTotal
        }
    }
}`;

export const SENT_BYTES_THROUGHPUTS = `subscription ComponentSentBytesThroughputsSubscription($interval: Int!) {
    componentSentBytesThroughputs(interval: $interval) {
        componentId
        throughput
    }
}`;

export const ERRORS_TOTALS = `subscription ComponentErrorsTotalsSubscription ($interval: Int!) {
    componentErrorsTotals(interval: $interval) {
        componentId
        metric {
            errorsTotal
        }
    }
}`;
